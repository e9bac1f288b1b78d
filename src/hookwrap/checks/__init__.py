"""hookwrap test and doctor: running hooks the way each CLI does, and reading what they answer.
Never copied into a project."""
