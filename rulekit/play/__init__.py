"""Playing matches: ``match`` plays one match with player objects and makes its log
records, ``replay`` writes, reads and plays such logs again (``rulekit run`` and ``replay``)."""
