"""The Java side of grading: hexkit's Java sources (the HexAround driver and a batch
compiler, shipped as package data) and the Python that compiles students' projects."""
