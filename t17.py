import sys, random
from workbench import fuzz
from engine.game import Game
from engine.play import derive_seed
from engine.agents.registry import make_agent
i=int(sys.argv[1]); lo=int(sys.argv[2]); hi=int(sys.argv[3])
p=fuzz.plan(int(__import__("os").environ.get("FSEED","11")),i)
case=fuzz.generate_case(p.case_seed)
cfg=fuzz.load_case(case)
agents=fuzz.agents_of(p.mix,cfg.players); seed=derive_seed(p.run_seed,0)
ag=[make_agent(a) for a in agents]; rngs=[random.Random(derive_seed(seed,"seat",k)) for k in range(len(agents))]
g=Game(cfg,seed)
while not g.is_terminal():
    k=g.current_player(); g.apply(ag[k].act(g,g.legal_actions(),rngs[k]),check=False)
ev=g.state.events
for j in range(lo, min(hi,len(ev))):
    print(j, ev.round[j], ev.turn[j], ev.phase[j], ev.player[j], ev.kind[j], ev.card[j], ev.card_id[j], "|", ev.target[j], ev.x[j], ev.y[j], ev.amount[j], ev.detail[j])
if len(sys.argv)>4:
    print(case.scenario); print(case.placements)
    for r in case.cards:
        if sys.argv[4] in r["name"]: print(r)
