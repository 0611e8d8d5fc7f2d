"""Training data: synthetic table photos, real labels, and the scripts that build them."""
