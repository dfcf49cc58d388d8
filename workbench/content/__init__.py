"""Content: the designer's spreadsheets read into cards, boards and setups (docs/card-language.md,
docs/boards.md), checked (`validate`), varied (`variants`) and written back as marked copies
(`proposals`). The only code that knows about spreadsheets; it imports no other wing.

`sheets` reads a file into plain rows, `tables` locates cells and problems, `card_sets` reads
card sets, `board_map`, `board_scenario` and `boards` read boards, `setup` turns names into a
GameConfig.
"""
