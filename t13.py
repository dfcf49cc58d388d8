import time
from workbench import fuzz
t=time.perf_counter(); bad=0
for i in range(int(__import__("sys").argv[1])):
    o,_=fuzz.play_planned(fuzz.plan(9,i))
    if o.failed: bad+=1; print(i, o.signature, o.detail[-500:])
print(time.perf_counter()-t, bad)
