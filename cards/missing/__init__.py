"""What is missing of a game: its gaps counted (``selectors``) and shown in the reader's language (``presentation``)."""
