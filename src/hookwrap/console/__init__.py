"""The hookwrap command's face: typer options in, one core call, printed results out."""
