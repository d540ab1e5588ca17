"""Plain helpers the test modules share (not fixtures: those are in ``tests/fixtures/``). No test module
imports another test module; what two of them need lives here."""
