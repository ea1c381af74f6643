"""The ground floor: reading files gpulint does not trust. One confined reader (regular files,
size limits, no link out of the scanned tree), text decoding, safe YAML and JSON, and the
did-you-mean words every layer offers. Every package may import this one; it imports only
`gpulint.model`."""
