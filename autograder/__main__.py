from autograder.cli import main

main()
