'''The job: what ReFrame imports while it loads a check.'''
