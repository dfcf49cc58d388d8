import sys, collections, random
from workbench import fuzz
from workbench.check.core import Events, GameInfo
from workbench.check.run import walk
from engine.game import Game
from engine.play import derive_seed
from engine.agents.registry import make_agent

def referee(game):
    s = game.state; cfg = s.config
    cols = dict(s.events.columns()); n = len(s.events)
    cols["game_id"] = [0]*n
    packs = sum(c.copies for c in cfg.pool if c.buy is not None) // cfg.pack_size
    info = GameInfo(0, cfg.board, dict(cfg.catalog), cfg.players, tuple(s.winners or ()), s.guard_stopped, packs)
    return walk(Events(cols), info, 0, n)

rules=collections.Counter(); ex={}
for i in range(int(sys.argv[1]), int(sys.argv[2])):
    p=fuzz.plan(int(sys.argv[3]) if len(sys.argv)>3 else 11,i)
    cfg=fuzz.load_case(fuzz.generate_case(p.case_seed))
    agents=fuzz.agents_of(p.mix,cfg.players); seed=derive_seed(p.run_seed,0)
    ag=[make_agent(a) for a in agents]; rngs=[random.Random(derive_seed(seed,"seat",k)) for k in range(len(agents))]
    g=Game(cfg,seed)
    while not g.is_terminal():
        k=g.current_player(); g.apply(ag[k].act(g,g.legal_actions(),rngs[k]),check=False)
    vs=referee(g)
    for v in vs:
        rules[v.rule]+=1; ex.setdefault(v.rule, (i, str(v)))
print(rules.most_common())
for r,(i,v) in ex.items(): print(r, i, v[:300])
