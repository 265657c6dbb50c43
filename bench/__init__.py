"""Benchmarks (print figures; not tests). A package so that bench/moderation.py is not mistaken
for the moderation app by mypy."""
