'''One archive per run: make, check, replay.'''
