"""The `heuristic` agent set: the default players of every run.

Each camp's policy has its own module, readable on its own:

- `agents.town`: civilians and the VSB, commissar and sergeant, doctor, ninja, necromancer;
- `agents.clans`: the Yakuza and the Triad, with the kamikaze and the thug;
- `agents.maniac`: the maniac.

Every agent works through its player's view only (`sim.engine.view.PlayerView`). Parameters are
declared with their ranges in each module and addressed by camp or role
(`--param town.crowd=0`, `--param thug.beat=0`; see `sim.game.params`).
"""

from __future__ import annotations

from agents.base import Agent
from agents.clans import ClanAgent, KamikazeAgent, ThugAgent
from agents.maniac import ManiacAgent
from agents.town import (
    CommissarAgent,
    DoctorAgent,
    NecromancerAgent,
    NinjaAgent,
    PublicDigest,
    TownAgent,
    TownTable,
)
from sim.game.roles import Role

__all__ = ["AGENTS", "ClanAgent", "CommissarAgent", "DoctorAgent", "KamikazeAgent",
           "ManiacAgent", "NecromancerAgent", "NinjaAgent", "PublicDigest", "ThugAgent",
           "TownAgent", "TownTable"]

AGENTS: dict[Role, type[Agent]] = {
    Role.CIVILIAN: TownAgent,
    Role.VSB: TownAgent,
    Role.COMMISSAR: CommissarAgent,
    Role.SERGEANT: CommissarAgent,
    Role.DOCTOR: DoctorAgent,
    Role.NINJA: NinjaAgent,
    Role.NECROMANCER: NecromancerAgent,
    Role.MAFIOSO: ClanAgent,
    Role.KAMIKAZE: KamikazeAgent,
    Role.THUG: ThugAgent,
    Role.MANIAC: ManiacAgent,
}
