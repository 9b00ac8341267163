"""Project: a workspace, one loaded game (Studio), and every finding it has."""
