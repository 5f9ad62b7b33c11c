mdtest -a DFS -I 10 -z 5 -b 2 -L -d / --dfs.pool <pool> --dfs.cont <cont>
