"""Bots that play any game through the engine interface; pure Python, never imports Django."""
