ior -a DFS -w -W -r -R -o /test2 -b 1g -t 4m -C --dfs.pool <pool> --dfs.cont <cont>
