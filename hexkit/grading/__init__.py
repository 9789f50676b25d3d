"""Grading students' game implementations against hexkit's reference games."""
