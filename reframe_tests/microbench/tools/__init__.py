'''One module per benchmark tool.'''
