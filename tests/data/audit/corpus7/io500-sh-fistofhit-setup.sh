#!bin/bash

cd io500

./io500 config.ini

cd - > /dev/null
