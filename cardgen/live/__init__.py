"""Live: the watch loop, the twin process and the gallery server's warm state."""
