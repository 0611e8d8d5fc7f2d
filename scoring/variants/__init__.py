"""The rule sets, one module each."""
