"""The games the site offers, with the names people read (the rules engines use the keys)."""

GAME_TITLES: dict[str, str] = {
    "japanese_joker": "Japanese Joker",
    "classic_joker": "Classic Georgian Joker",
    "japanese_whist": "Japanese Whist",
}
