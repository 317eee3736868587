"""What a reader sees: every text, embed, choice list, story and picture request."""
