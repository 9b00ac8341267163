"""Templates, rich text and fitting, card faces as Form XObjects, print sheets and raster
exports."""
