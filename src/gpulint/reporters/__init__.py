"""Output formats. Each renders the JSON report dict to text; the registry is explicit."""
