"""Run the cardgen command line as `python -m cardgen`."""
from .cli import run

run()
