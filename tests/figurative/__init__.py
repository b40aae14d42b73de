"""Tests of helpers.figurative: a test module per source module (test_<module>.py) and the chapters'
end-to-end tests (test_chNN.py). A package, so that test modules of one name in two studies do not collide."""
