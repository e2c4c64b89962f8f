BEGIN TRANSACTION;
CREATE TABLE alembic_version (
	version_num VARCHAR(32) NOT NULL, 
	CONSTRAINT alembic_version_pkc PRIMARY KEY (version_num)
);
INSERT INTO "alembic_version" VALUES('7c2e94d1a0b8');
CREATE TABLE badge (
	id INTEGER NOT NULL, 
	character_id INTEGER NOT NULL, 
	secret VARCHAR(40) NOT NULL, 
	short_code VARCHAR(12) NOT NULL, 
	issued_at DATETIME NOT NULL, 
	revoked_at DATETIME, 
	printed_at DATETIME, 
	PRIMARY KEY (id), 
	FOREIGN KEY(character_id) REFERENCES character (id), 
	UNIQUE (secret), 
	UNIQUE (short_code)
);
INSERT INTO "badge" VALUES(1,1,'J9JUHGCJ6RYF6H2BJT35D694HH','CDA-S7S-3BY','2026-12-02 04:32:05.457282',NULL,NULL);
INSERT INTO "badge" VALUES(2,2,'UWWHC57RRDKS2JFJUY7GSQDGNC','UD8-E6D-34W','2026-12-02 04:32:05.462767',NULL,NULL);
CREATE TABLE badge_lookup (
	id INTEGER NOT NULL, 
	at DATETIME NOT NULL, 
	user_id INTEGER, 
	event_id INTEGER, 
	badge_id INTEGER, 
	presented VARCHAR(80) NOT NULL, 
	reason VARCHAR(20) NOT NULL, 
	PRIMARY KEY (id), 
	FOREIGN KEY(badge_id) REFERENCES badge (id), 
	FOREIGN KEY(event_id) REFERENCES event (id), 
	FOREIGN KEY(user_id) REFERENCES user (id)
);
CREATE TABLE character (
	id INTEGER NOT NULL, 
	event_id INTEGER NOT NULL, 
	player VARCHAR(120) NOT NULL, 
	name VARCHAR(120) NOT NULL, 
	faction VARCHAR(120), 
	tabletop JSON NOT NULL, 
	larp JSON NOT NULL, 
	created_at DATETIME NOT NULL, player_secret VARCHAR(40), withdrawn_at DATETIME, present_at DATETIME, 
	PRIMARY KEY (id), 
	FOREIGN KEY(event_id) REFERENCES event (id)
);
INSERT INTO "character" VALUES(1,1,'Giulia Rossi','Dott.ssa Vera Lanz','Corporazione','{"ruleset": "ex-nihilo", "player": "Giulia Rossi", "character": "Dott.ssa Vera Lanz", "faction": "Corporazione", "attributes": {"corpo": 16, "equilibrio": 12, "mente": 18, "spirito": 21}, "skills": {"medicina": 3, "biologia": 2, "ricerca": 1}, "advancements": [{"name": "Colpo Caricato", "energy_cost": 1, "passive": false, "larp": true, "text": "Con un''arma da mischia a due mani sbilancia l''avversario (difficolt\u00e0 50)."}, {"name": "Sguardo del Vuoto", "energy_cost": 2, "passive": false, "larp": true, "text": "Il bersaglio subisce Paura."}], "armour": {"name": "Giubbotto rinforzato", "weight": "media", "deflection": 10, "absorption": 4, "max_equilibrio": 18}, "weapons": [{"name": "Pistola", "kind": "distanza", "damage": 12, "range_m": 25, "hands": 1}, {"name": "Coltello", "kind": "mischia", "damage": 4, "hands": 1}], "notes": "Medico della Corporazione."}','{"ruleset": "ex-nihilo", "player": "Giulia Rossi", "character": "Dott.ssa Vera Lanz", "faction": "Corporazione", "hp_max": 3, "ap_max": 3, "energy_max": 3, "energy_recovery_minutes": 20, "equipment": "pesante", "fascino": 33, "leadership": 39, "percezione": 30, "skill_slots": 5, "skills": [{"key": "medicina", "grade": 3, "name": {"it": "Medicina", "en": "Medicine", "es": "Medicina"}, "description": {"it": "la scienza che si occupa della salute del paziente. Comprende le discipline da laboratorio, le discipline chirurgiche, le discipline non chirurgiche, e molti tipi di medicina alternativa.", "en": "the science concerned with the patient''s health. It includes laboratory disciplines, surgical disciplines, non-surgical disciplines, and many kinds of alternative medicine.", "es": "la ciencia que se ocupa de la salud del paciente. Comprende las disciplinas de laboratorio, las disciplinas quir\u00fargicas, las disciplinas no quir\u00fargicas y muchos tipos de medicina alternativa."}}, {"key": "biologia", "grade": 2, "name": {"it": "Biologia", "en": "Biology", "es": "Biolog\u00eda"}, "description": {"it": "\u00e8 la scienza che studia tutto ci\u00f2 che \u00e8 vivo. La definizione di biologia presente in EX Nihilo accorpa diverse branche di biologia: cellulare, biotecnologia, ecologia, biologia evolutiva, epidemiologia, aerobiologia, anatomia, strutturale, forense, etologia, farmacologa, genetica, immunologia, tossicologia, virologia, micologia, morfologia, botanica, cronobiologia, biogeografia. Inoltre si hanno conoscenze di chimica organica e sopravvivenza.", "en": "it is the science that studies everything that is alive. The definition of biology used in EX Nihilo brings together several branches of biology: cellular, biotechnology, ecology, evolutionary biology, epidemiology, aerobiology, anatomy, structural, forensic, ethology, pharmacology, genetics, immunology, toxicology, virology, mycology, morphology, botany, chronobiology, biogeography. It also includes knowledge of organic chemistry and survival.", "es": "es la ciencia que estudia todo lo que est\u00e1 vivo. La definici\u00f3n de biolog\u00eda presente en EX Nihilo agrupa diversas ramas de la biolog\u00eda: celular, biotecnolog\u00eda, ecolog\u00eda, biolog\u00eda evolutiva, epidemiolog\u00eda, aerobiolog\u00eda, anatom\u00eda, estructural, forense, etolog\u00eda, farmacolog\u00eda, gen\u00e9tica, inmunolog\u00eda, toxicolog\u00eda, virolog\u00eda, micolog\u00eda, morfolog\u00eda, bot\u00e1nica, cronobiolog\u00eda, biogeograf\u00eda. Adem\u00e1s, incluye conocimientos de qu\u00edmica org\u00e1nica y supervivencia."}}, {"key": "ricerca", "grade": 1, "name": {"it": "Ricerca", "en": "Research", "es": "Investigaci\u00f3n"}, "description": {"it": "contiene una serie di discipline non direttamente connesse fra loro, ma accomunate dal concetto moderno di ricerca: investigare, hacking, scovare trappole, cartografia, navigazione, capacit\u00e0 di sopravvivere in ambienti selvaggi.", "en": "contains a series of disciplines not directly connected to one another, but united by the modern concept of research: investigating, hacking, finding traps, cartography, navigation, the ability to survive in wild environments.", "es": "contiene una serie de disciplinas no directamente relacionadas entre s\u00ed, pero unidas por el concepto moderno de investigaci\u00f3n: investigar, hacking, descubrir trampas, cartograf\u00eda, navegaci\u00f3n, capacidad de sobrevivir en entornos salvajes."}}], "armour": {"name": "Giubbotto rinforzato", "weight": "media", "points": 2}, "weapons": [{"name": "Pistola", "kind": "distanza", "hands": 1}, {"name": "Coltello", "kind": "mischia", "hands": 1}], "statuses": [{"key": "dolore", "turns": 3}, {"key": "paura", "turns": 3}, {"key": "percepire_alle_spalle", "turns": 0}, {"key": "a_terra", "turns": 1}, {"key": "stordimento", "turns": 5}, {"key": "invisibile", "turns": null}, {"key": "intangibile", "turns": null}, {"key": "ammaliamento", "turns": 60}, {"key": "paralisi", "turns": 5}, {"key": "incosciente", "turns": 600}], "rules": [{"key": "stagger", "name": {"it": "Gravemente ferito (0 punti)", "en": "Gravely wounded (0 points)", "es": "Gravemente herido (0 puntos)"}, "text": {"it": "A 0 punti vita il personaggio pu\u00f2 solo barcollare o muoversi di 1 metro per turno; qualsiasi colpo in pi\u00f9 lo rende incosciente.", "en": "At 0 hit points the character can only stagger or move 1 metre a turn; any further blow knocks them unconscious.", "es": "Con 0 puntos de vida el personaje solo puede tambalearse o moverse 1 metro por turno; cualquier golpe m\u00e1s lo deja inconsciente."}}, {"key": "coup_de_grace", "name": {"it": "Colpo di grazia", "en": "Coup de gr\u00e2ce", "es": "Golpe de gracia"}, "text": {"it": "Un colpo mortale mimato per almeno 3 secondi uccide un personaggio incosciente.", "en": "A killing blow mimed for at least 3 seconds kills an unconscious character.", "es": "Un golpe mortal fingido durante al menos 3 segundos mata a un personaje inconsciente."}}], "notes": "Medico della Corporazione.", "advancements": [{"name": "Colpo Caricato", "energy_cost": 1, "passive": false, "text": "Con un''arma da mischia a due mani sbilancia l''avversario (difficolt\u00e0 50)."}, {"name": "Sguardo del Vuoto", "energy_cost": 2, "passive": false, "text": "Il bersaglio subisce Paura."}], "warnings": [], "tables": {"attributes": "house default", "armour": "house default", "statuses": "house default", "skills": "house default"}}','2026-12-02 04:32:05.450574','SK3HS72836MFWMFF4EBDYZ8REM',NULL,NULL);
INSERT INTO "character" VALUES(2,1,'Marco Bianchi','Ugo Ferri','Nomadi','{"ruleset": "ex-nihilo", "player": "Marco Bianchi", "character": "Ugo Ferri", "faction": "Nomadi", "attributes": {"corpo": 16, "equilibrio": 12, "mente": 18, "spirito": 21}, "skills": {"medicina": 3, "biologia": 2, "ricerca": 1}, "advancements": [{"name": "Colpo Caricato", "energy_cost": 1, "passive": false, "larp": true, "text": "Con un''arma da mischia a due mani sbilancia l''avversario (difficolt\u00e0 50)."}, {"name": "Sguardo del Vuoto", "energy_cost": 2, "passive": false, "larp": true, "text": "Il bersaglio subisce Paura."}], "armour": {"name": "Giubbotto rinforzato", "weight": "media", "deflection": 10, "absorption": 4, "max_equilibrio": 18}, "weapons": [{"name": "Pistola", "kind": "distanza", "damage": 12, "range_m": 25, "hands": 1}, {"name": "Coltello", "kind": "mischia", "damage": 4, "hands": 1}], "notes": "Medico della Corporazione."}','{"ruleset": "ex-nihilo", "player": "Marco Bianchi", "character": "Ugo Ferri", "faction": "Nomadi", "hp_max": 3, "ap_max": 3, "energy_max": 3, "energy_recovery_minutes": 20, "equipment": "pesante", "fascino": 33, "leadership": 39, "percezione": 30, "skill_slots": 5, "skills": [{"key": "medicina", "grade": 3, "name": {"it": "Medicina", "en": "Medicine", "es": "Medicina"}, "description": {"it": "la scienza che si occupa della salute del paziente. Comprende le discipline da laboratorio, le discipline chirurgiche, le discipline non chirurgiche, e molti tipi di medicina alternativa.", "en": "the science concerned with the patient''s health. It includes laboratory disciplines, surgical disciplines, non-surgical disciplines, and many kinds of alternative medicine.", "es": "la ciencia que se ocupa de la salud del paciente. Comprende las disciplinas de laboratorio, las disciplinas quir\u00fargicas, las disciplinas no quir\u00fargicas y muchos tipos de medicina alternativa."}}, {"key": "biologia", "grade": 2, "name": {"it": "Biologia", "en": "Biology", "es": "Biolog\u00eda"}, "description": {"it": "\u00e8 la scienza che studia tutto ci\u00f2 che \u00e8 vivo. La definizione di biologia presente in EX Nihilo accorpa diverse branche di biologia: cellulare, biotecnologia, ecologia, biologia evolutiva, epidemiologia, aerobiologia, anatomia, strutturale, forense, etologia, farmacologa, genetica, immunologia, tossicologia, virologia, micologia, morfologia, botanica, cronobiologia, biogeografia. Inoltre si hanno conoscenze di chimica organica e sopravvivenza.", "en": "it is the science that studies everything that is alive. The definition of biology used in EX Nihilo brings together several branches of biology: cellular, biotechnology, ecology, evolutionary biology, epidemiology, aerobiology, anatomy, structural, forensic, ethology, pharmacology, genetics, immunology, toxicology, virology, mycology, morphology, botany, chronobiology, biogeography. It also includes knowledge of organic chemistry and survival.", "es": "es la ciencia que estudia todo lo que est\u00e1 vivo. La definici\u00f3n de biolog\u00eda presente en EX Nihilo agrupa diversas ramas de la biolog\u00eda: celular, biotecnolog\u00eda, ecolog\u00eda, biolog\u00eda evolutiva, epidemiolog\u00eda, aerobiolog\u00eda, anatom\u00eda, estructural, forense, etolog\u00eda, farmacolog\u00eda, gen\u00e9tica, inmunolog\u00eda, toxicolog\u00eda, virolog\u00eda, micolog\u00eda, morfolog\u00eda, bot\u00e1nica, cronobiolog\u00eda, biogeograf\u00eda. Adem\u00e1s, incluye conocimientos de qu\u00edmica org\u00e1nica y supervivencia."}}, {"key": "ricerca", "grade": 1, "name": {"it": "Ricerca", "en": "Research", "es": "Investigaci\u00f3n"}, "description": {"it": "contiene una serie di discipline non direttamente connesse fra loro, ma accomunate dal concetto moderno di ricerca: investigare, hacking, scovare trappole, cartografia, navigazione, capacit\u00e0 di sopravvivere in ambienti selvaggi.", "en": "contains a series of disciplines not directly connected to one another, but united by the modern concept of research: investigating, hacking, finding traps, cartography, navigation, the ability to survive in wild environments.", "es": "contiene una serie de disciplinas no directamente relacionadas entre s\u00ed, pero unidas por el concepto moderno de investigaci\u00f3n: investigar, hacking, descubrir trampas, cartograf\u00eda, navegaci\u00f3n, capacidad de sobrevivir en entornos salvajes."}}], "armour": {"name": "Giubbotto rinforzato", "weight": "media", "points": 2}, "weapons": [{"name": "Pistola", "kind": "distanza", "hands": 1}, {"name": "Coltello", "kind": "mischia", "hands": 1}], "statuses": [{"key": "dolore", "turns": 3}, {"key": "paura", "turns": 3}, {"key": "percepire_alle_spalle", "turns": 0}, {"key": "a_terra", "turns": 1}, {"key": "stordimento", "turns": 5}, {"key": "invisibile", "turns": null}, {"key": "intangibile", "turns": null}, {"key": "ammaliamento", "turns": 60}, {"key": "paralisi", "turns": 5}, {"key": "incosciente", "turns": 600}], "rules": [{"key": "stagger", "name": {"it": "Gravemente ferito (0 punti)", "en": "Gravely wounded (0 points)", "es": "Gravemente herido (0 puntos)"}, "text": {"it": "A 0 punti vita il personaggio pu\u00f2 solo barcollare o muoversi di 1 metro per turno; qualsiasi colpo in pi\u00f9 lo rende incosciente.", "en": "At 0 hit points the character can only stagger or move 1 metre a turn; any further blow knocks them unconscious.", "es": "Con 0 puntos de vida el personaje solo puede tambalearse o moverse 1 metro por turno; cualquier golpe m\u00e1s lo deja inconsciente."}}, {"key": "coup_de_grace", "name": {"it": "Colpo di grazia", "en": "Coup de gr\u00e2ce", "es": "Golpe de gracia"}, "text": {"it": "Un colpo mortale mimato per almeno 3 secondi uccide un personaggio incosciente.", "en": "A killing blow mimed for at least 3 seconds kills an unconscious character.", "es": "Un golpe mortal fingido durante al menos 3 segundos mata a un personaje inconsciente."}}], "notes": "Medico della Corporazione.", "advancements": [{"name": "Colpo Caricato", "energy_cost": 1, "passive": false, "text": "Con un''arma da mischia a due mani sbilancia l''avversario (difficolt\u00e0 50)."}, {"name": "Sguardo del Vuoto", "energy_cost": 2, "passive": false, "text": "Il bersaglio subisce Paura."}], "warnings": [], "tables": {"attributes": "house default", "armour": "house default", "statuses": "house default", "skills": "house default"}}','2026-12-02 04:32:05.450574','AKNKXWGCC4VZZMXYBDNDZTVKG2',NULL,NULL);
CREATE TABLE dismissed_conflict (
	id INTEGER NOT NULL, 
	client_id VARCHAR(36) NOT NULL, 
	user_id INTEGER NOT NULL, 
	at DATETIME NOT NULL, 
	PRIMARY KEY (id), 
	FOREIGN KEY(user_id) REFERENCES user (id), 
	CONSTRAINT uq_dismissed_conflict UNIQUE (client_id, user_id)
);
CREATE TABLE entry (
	id INTEGER NOT NULL, 
	client_id VARCHAR(36) NOT NULL, 
	character_id INTEGER NOT NULL, 
	kind VARCHAR(30) NOT NULL, 
	at DATETIME NOT NULL, 
	sent_at DATETIME, 
	received_at DATETIME NOT NULL, 
	author_id INTEGER, 
	fields JSON NOT NULL, 
	PRIMARY KEY (id), 
	FOREIGN KEY(author_id) REFERENCES user (id), 
	FOREIGN KEY(character_id) REFERENCES character (id), 
	CONSTRAINT uq_entry_client_id UNIQUE (client_id)
);
INSERT INTO "entry" VALUES(1,'00000000-0000-0000-0000-000000000064',1,'hit','2026-12-02 03:42:05.476341',NULL,'2026-12-02 04:32:05.485497',2,'{"id": "00000000-0000-0000-0000-000000000064", "kind": "hit", "at": "2026-12-02T03:42:05.476341Z", "damage": 1, "blows": 2, "pierce": false, "author": "referee"}');
INSERT INTO "entry" VALUES(2,'00000000-0000-0000-0000-000000000065',1,'status_on','2026-12-02 03:52:05.476341',NULL,'2026-12-02 04:32:05.509379',2,'{"id": "00000000-0000-0000-0000-000000000065", "kind": "status_on", "at": "2026-12-02T03:52:05.476341Z", "key": "paura", "author": "referee"}');
INSERT INTO "entry" VALUES(3,'00000000-0000-0000-0000-000000000066',1,'hit','2026-12-02 04:02:05.476341',NULL,'2026-12-02 04:32:05.551079',2,'{"id": "00000000-0000-0000-0000-000000000066", "kind": "hit", "at": "2026-12-02T04:02:05.476341Z", "damage": 1, "blows": 1, "pierce": false, "author": "referee"}');
INSERT INTO "entry" VALUES(4,'00000000-0000-0000-0000-0000000000c8',2,'spend_energy','2026-12-02 03:47:05.476341',NULL,'2026-12-02 04:32:05.575117',2,'{"id": "00000000-0000-0000-0000-0000000000c8", "kind": "spend_energy", "at": "2026-12-02T03:47:05.476341Z", "amount": 1, "advancement": "Colpo Caricato", "author": "referee"}');
INSERT INTO "entry" VALUES(5,'00000000-0000-0000-0000-0000000000c9',2,'hit','2026-12-02 04:12:05.476341',NULL,'2026-12-02 04:32:05.595668',2,'{"id": "00000000-0000-0000-0000-0000000000c9", "kind": "hit", "at": "2026-12-02T04:12:05.476341Z", "damage": 1, "blows": 3, "pierce": false, "author": "referee"}');
CREATE TABLE event (
	id INTEGER NOT NULL, 
	name VARCHAR(120) NOT NULL, 
	ruleset VARCHAR(40) NOT NULL, 
	settings JSON NOT NULL, 
	created_at DATETIME NOT NULL, faction_colours JSON DEFAULT '{}' NOT NULL, archived_at DATETIME, 
	PRIMARY KEY (id)
);
INSERT INTO "event" VALUES(1,'Historic event','ex-nihilo','{"turn_seconds": 1, "secret": "bc6f3b3508a763812a9efeddf62fcea6"}','2026-12-02 04:32:05.430322','{}',NULL);
CREATE TABLE login_attempt (
	id INTEGER NOT NULL, 
	username VARCHAR(80) NOT NULL, 
	address VARCHAR(64) NOT NULL, 
	at DATETIME NOT NULL, 
	PRIMARY KEY (id)
);
CREATE TABLE "print_job" (
	id INTEGER NOT NULL, 
	event_id INTEGER NOT NULL, 
	options JSON NOT NULL, 
	status VARCHAR(10) NOT NULL, 
	done INTEGER NOT NULL, 
	total INTEGER NOT NULL, 
	path VARCHAR(255), 
	error VARCHAR(255), 
	created_at DATETIME NOT NULL, 
	finished_at DATETIME, 
	heartbeat_at DATETIME, 
	running_key VARCHAR(64), 
	PRIMARY KEY (id), 
	CONSTRAINT uq_print_job_running_key UNIQUE (running_key), 
	FOREIGN KEY(event_id) REFERENCES event (id)
);
CREATE TABLE refused_entry (
	id INTEGER NOT NULL, 
	at DATETIME NOT NULL, 
	client_id VARCHAR(36) NOT NULL, 
	character_id INTEGER NOT NULL, 
	user_id INTEGER, 
	fields JSON NOT NULL, 
	code VARCHAR(40) NOT NULL, 
	message VARCHAR(400) NOT NULL, params JSON, 
	PRIMARY KEY (id), 
	FOREIGN KEY(character_id) REFERENCES character (id), 
	FOREIGN KEY(user_id) REFERENCES user (id)
);
CREATE TABLE sheet_change (
	id INTEGER NOT NULL, 
	character_id INTEGER NOT NULL, 
	at DATETIME NOT NULL, 
	user_id INTEGER, 
	author VARCHAR(80), 
	source VARCHAR(20) NOT NULL, 
	"before" JSON, 
	"after" JSON NOT NULL, 
	PRIMARY KEY (id), 
	FOREIGN KEY(character_id) REFERENCES character (id), 
	FOREIGN KEY(user_id) REFERENCES user (id)
);
CREATE TABLE user (
	id INTEGER NOT NULL, 
	username VARCHAR(80) NOT NULL, 
	password_hash VARCHAR(255) NOT NULL, 
	role VARCHAR(20) NOT NULL, 
	token_hash VARCHAR(64) NOT NULL, 
	active BOOLEAN NOT NULL, 
	created_at DATETIME NOT NULL, session_epoch INTEGER DEFAULT '0' NOT NULL, language VARCHAR(5), 
	PRIMARY KEY (id), 
	UNIQUE (token_hash), 
	UNIQUE (username)
);
INSERT INTO "user" VALUES(1,'organiser','scrypt:32768:8:1$KGk7lTfWa2vmUAUx$a8cde0c51f6dce1ece03a864a5250739ac1f20b23d71512bf2b63dcfa6133d1d13a1759eaa28dbedae381f97c61d5a5622c7f552021f08deecb0926ec878bd6b','organiser','f3ad484c1636a441bd05f52d36d813dc353ff06f6710e81dd269c3f51a7713e2',1,'2026-12-02 04:32:05.172628',0,NULL);
INSERT INTO "user" VALUES(2,'referee','scrypt:32768:8:1$WCG9RapcGlGBEN5y$669aea459903b3832b793bbfde9a5a877f25d29ca14dd8db435aebb8569a71d3b8ef100f129e3649fb14fad1017703760f0ee0f2bd1c159c468d865c31987dbd','referee','d6567d818bc951d7f42572a86aeb6eb9930928114dee0a6f1f8593f023708fa6',1,'2026-12-02 04:32:05.398743',0,NULL);
CREATE INDEX ix_character_event_id ON character (event_id);
CREATE INDEX ix_entry_character_id ON entry (character_id);
CREATE INDEX ix_login_attempt_address ON login_attempt (address);
CREATE INDEX ix_login_attempt_at ON login_attempt (at);
CREATE INDEX ix_login_attempt_username ON login_attempt (username);
CREATE INDEX ix_badge_character_id ON badge (character_id);
CREATE UNIQUE INDEX uq_badge_active ON badge (character_id) WHERE revoked_at IS NULL;
CREATE INDEX ix_badge_lookup_at ON badge_lookup (at);
CREATE INDEX ix_badge_lookup_event_id ON badge_lookup (event_id);
CREATE UNIQUE INDEX ix_character_player_secret ON character (player_secret);
CREATE INDEX ix_refused_entry_at ON refused_entry (at);
CREATE INDEX ix_refused_entry_character_id ON refused_entry (character_id);
CREATE UNIQUE INDEX ix_refused_entry_client_id ON refused_entry (client_id);
CREATE INDEX ix_sheet_change_character_id ON sheet_change (character_id);
CREATE INDEX ix_print_job_event_id ON print_job (event_id);
COMMIT;
