"""Game records in and out of the ledger: the import, export and results of PBN, LIN, USEBIO and
Bridgemate files (:mod:`.games`), and the file formats themselves (:mod:`.formats`)."""
