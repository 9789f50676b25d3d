"""``hexkit play`` at the terminal: the session's read-eval-print loop and the console it
draws on (width, colour, the thinking line)."""
