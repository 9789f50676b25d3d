"""Focus: the OSU CS162 FocusGame and Sackson's Focus/Domination, as a hexkit plugin."""
