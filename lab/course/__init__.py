"""What only the lessons need: exercises and their checkers, lesson scenarios that re-run
cleanly, and the machinery that executes the lessons. The library never imports this package."""
