"""Run the cardgen command line as `python -m cardgen`."""

from .cli.main import run

run()
