"""Cards to and from the designer's spreadsheet: read sheets, pull edits into the YAML in place,
push the cards as a sheet, and name the cell behind each finding."""
