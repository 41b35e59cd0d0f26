"""The live service's routes, one ``APIRouter`` per area: :mod:`.api` (the JSON API and
the live feed), :mod:`.table` (a table device's pages), :mod:`.director` (the console and
the board pages), :mod:`.committee` (appeals, case files, the register) and :mod:`.auth`
(the home redirect and sign-out; sign-in is ``ledger.live.signin``)."""
