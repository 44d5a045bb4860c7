"""Where a battalion is when it is not on a zone, the lack of a battalion, and the phases of a battle:
plain numbers every layer of the engine shares (zone numbers on the battlefield are 0 and up)."""
IN_PRISON = -1
SLAUGHTERED = -2
UNDEPLOYED = -3
NOBODY = -1  # no battalion holds a token, no battalion was chosen

PHASE_FORMATION = "formation"
PHASE_BATTLE = "battle"
PHASE_OVER = "over"
