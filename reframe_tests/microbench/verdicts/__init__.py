'''The verdicts of the microbench command over ReFrame's results storage.'''
