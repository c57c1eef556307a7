"""Tests of the web server (``rummy500.server``)."""
