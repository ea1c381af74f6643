from gpulint.cli import main

main()
