from varz_deck.cli import main

main()
