import sys, collections, time
from workbench import fuzz
c=collections.Counter(); ex={}
t=time.perf_counter()
for i in range(int(sys.argv[2])):
    o,_=fuzz.play_planned(fuzz.plan(int(sys.argv[1]),i))
    c[o.kind]+=1
    if o.failed: ex.setdefault(o.signature,(i,o.detail[:300]))
print(c, time.perf_counter()-t)
for k,v in ex.items(): print(k, v)
