"""Mahjong hands and their scores under four rule sets; standard library only (plus ``mahjong``)."""
