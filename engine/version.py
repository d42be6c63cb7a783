"""The game's one version string: shown on the title screen and printed at
boot, written into game records and saves, and naming the release in
dist/<VERSION>/ (semantic versioning: a save or record from a newer major
or minor version may hold what this one cannot read)."""

VERSION = "1.0.0"
