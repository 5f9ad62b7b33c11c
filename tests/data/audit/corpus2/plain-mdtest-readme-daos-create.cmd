mdtest -a DFS -n 1000 -F -C -d / --dfs.pool <pool> --dfs.cont <cont>
