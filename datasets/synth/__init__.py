"""Synthetic table photos composed from real tile faces and tile art, with exact labels."""
