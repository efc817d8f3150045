from autograder.service.app import main

main()
