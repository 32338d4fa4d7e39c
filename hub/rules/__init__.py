"""The rules core: one hand (:mod:`.hand`), its dealing procedure (:mod:`.procedure`), the
table across hands (:mod:`.table`) and their vocabularies; pure, no I/O.

A card is a :data:`CardIndex` (``rank * 4 + suit``, from :mod:`feltwire.cards`, re-exported
here); the two numberings of seats are :data:`~hub.rules.errors.HandSeat` and
:data:`~hub.rules.errors.TableSeat`.
"""

from feltwire.cards import CardIndex

__all__ = ["CardIndex"]
