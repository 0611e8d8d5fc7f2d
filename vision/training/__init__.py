"""Training and export of the two models with ultralytics (the ``train`` extra: torch, ultralytics)."""
