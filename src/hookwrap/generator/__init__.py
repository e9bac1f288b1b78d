"""The hookwrap command's generator: the manifest, rendering, each CLI's settings file, plans and
safe writes, trust and the resident server's service. Never copied into a project."""
