"""The command line: click commands and options, one library call each (`cardgen.cli.main:run`)."""
