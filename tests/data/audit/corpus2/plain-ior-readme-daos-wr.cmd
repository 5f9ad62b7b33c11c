ior -a DFS -w -r -o /test3 -b 8g -t 1m -C --dfs.pool <pool> --dfs.cont <cont>
