BEGIN TRANSACTION;
CREATE TABLE alembic_version (
	version_num VARCHAR(32) NOT NULL, 
	CONSTRAINT alembic_version_pkc PRIMARY KEY (version_num)
);
INSERT INTO "alembic_version" VALUES('7c2d4e1f9a30');
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
INSERT INTO "badge" VALUES(1,1,'W3VHMWERV4V26UDSBCMQNEJ93M','88K-ERS-XYY','2026-12-02 04:30:20.582782',NULL,NULL);
INSERT INTO "badge" VALUES(2,2,'XASJWEKDJTD3MFF77F8AJWQ47P','N5Z-W4A-VDM','2026-12-02 04:30:20.595947',NULL,NULL);
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
	created_at DATETIME NOT NULL, player_secret VARCHAR(40), 
	PRIMARY KEY (id), 
	FOREIGN KEY(event_id) REFERENCES event (id)
);
INSERT INTO "character" VALUES(1,1,'Giulia Rossi','Dott.ssa Vera Lanz','Corporazione','{"ruleset": "ex-nihilo", "player": "Giulia Rossi", "character": "Dott.ssa Vera Lanz", "faction": "Corporazione", "attributes": {"corpo": 16, "equilibrio": 12, "mente": 18, "spirito": 21}, "skills": {"medicina": 3, "biologia": 2, "ricerca": 1}, "advancements": [{"name": "Colpo Caricato", "energy_cost": 1, "passive": false, "larp": true, "text": "Con un''arma da mischia a due mani sbilancia l''avversario (difficolt\u00e0 50)."}, {"name": "Sguardo del Vuoto", "energy_cost": 2, "passive": false, "larp": true, "text": "Il bersaglio subisce Paura."}], "armour": {"name": "Giubbotto rinforzato", "weight": "media", "deflection": 10, "absorption": 4, "max_equilibrio": 18}, "weapons": [{"name": "Pistola", "kind": "distanza", "damage": 12, "range_m": 25, "hands": 1}, {"name": "Coltello", "kind": "mischia", "damage": 4, "hands": 1}], "notes": "Medico della Corporazione."}','{"ruleset": "ex-nihilo", "player": "Giulia Rossi", "character": "Dott.ssa Vera Lanz", "faction": "Corporazione", "hp_max": 3, "ap_max": 3, "energy_max": 3, "energy_recovery_minutes": 20, "equipment": "pesante", "fascino": 33, "leadership": 39, "percezione": 30, "skill_slots": 5, "skills": [{"key": "medicina", "grade": 3, "name": {"it": "Medicina", "en": "Medicine", "es": "Medicina"}, "description": {"it": "la scienza che si occupa della salute del paziente. Comprende le discipline da laboratorio, le discipline chirurgiche, le discipline non chirurgiche, e molti tipi di medicina alternativa.", "en": "the science concerned with the patient''s health. It includes laboratory disciplines, surgical disciplines, non-surgical disciplines, and many kinds of alternative medicine.", "es": "la ciencia que se ocupa de la salud del paciente. Comprende las disciplinas de laboratorio, las disciplinas quir\u00fargicas, las disciplinas no quir\u00fargicas y muchos tipos de medicina alternativa."}}, {"key": "biologia", "grade": 2, "name": {"it": "Biologia", "en": "Biology", "es": "Biolog\u00eda"}, "description": {"it": "\u00e8 la scienza che studia tutto ci\u00f2 che \u00e8 vivo. La definizione di biologia presente in EX Nihilo accorpa diverse branche di biologia: cellulare, biotecnologia, ecologia, biologia evolutiva, epidemiologia, aerobiologia, anatomia, strutturale, forense, etologia, farmacologa, genetica, immunologia, tossicologia, virologia, micologia, morfologia, botanica, cronobiologia, biogeografia. Inoltre si hanno conoscenze di chimica organica e sopravvivenza.", "en": "it is the science that studies everything that is alive. The definition of biology used in EX Nihilo brings together several branches of biology: cellular, biotechnology, ecology, evolutionary biology, epidemiology, aerobiology, anatomy, structural, forensic, ethology, pharmacology, genetics, immunology, toxicology, virology, mycology, morphology, botany, chronobiology, biogeography. It also includes knowledge of organic chemistry and survival.", "es": "es la ciencia que estudia todo lo que est\u00e1 vivo. La definici\u00f3n de biolog\u00eda presente en EX Nihilo agrupa diversas ramas de la biolog\u00eda: celular, biotecnolog\u00eda, ecolog\u00eda, biolog\u00eda evolutiva, epidemiolog\u00eda, aerobiolog\u00eda, anatom\u00eda, estructural, forense, etolog\u00eda, farmacolog\u00eda, gen\u00e9tica, inmunolog\u00eda, toxicolog\u00eda, virolog\u00eda, micolog\u00eda, morfolog\u00eda, bot\u00e1nica, cronobiolog\u00eda, biogeograf\u00eda. Adem\u00e1s, incluye conocimientos de qu\u00edmica org\u00e1nica y supervivencia."}}, {"key": "ricerca", "grade": 1, "name": {"it": "Ricerca", "en": "Research", "es": "Investigaci\u00f3n"}, "description": {"it": "contiene una serie di discipline non direttamente connesse fra loro, ma accomunate dal concetto moderno di ricerca: investigare, hacking, scovare trappole, cartografia, navigazione, capacit\u00e0 di sopravvivere in ambienti selvaggi.", "en": "contains a series of disciplines not directly connected to one another, but united by the modern concept of research: investigating, hacking, finding traps, cartography, navigation, the ability to survive in wild environments.", "es": "contiene una serie de disciplinas no directamente relacionadas entre s\u00ed, pero unidas por el concepto moderno de investigaci\u00f3n: investigar, hacking, descubrir trampas, cartograf\u00eda, navegaci\u00f3n, capacidad de sobrevivir en entornos salvajes."}}], "armour": {"name": "Giubbotto rinforzato", "weight": "media", "points": 2}, "weapons": [{"name": "Pistola", "kind": "distanza", "hands": 1}, {"name": "Coltello", "kind": "mischia", "hands": 1}], "statuses": [{"key": "dolore", "turns": 3}, {"key": "paura", "turns": 3}, {"key": "percepire_alle_spalle", "turns": 0}, {"key": "a_terra", "turns": 1}, {"key": "stordimento", "turns": 5}, {"key": "invisibile", "turns": null}, {"key": "intangibile", "turns": null}, {"key": "ammaliamento", "turns": 60}, {"key": "paralisi", "turns": 5}, {"key": "incosciente", "turns": 600}], "notes": "Medico della Corporazione.", "advancements": [{"name": "Colpo Caricato", "energy_cost": 1, "passive": false, "text": "Con un''arma da mischia a due mani sbilancia l''avversario (difficolt\u00e0 50)."}, {"name": "Sguardo del Vuoto", "energy_cost": 2, "passive": false, "text": "Il bersaglio subisce Paura."}], "warnings": [], "tables": {"attributes": "house default", "armour": "house default", "statuses": "house default", "skills": "house default"}}','2026-12-02 04:30:20.567499','9BHQKRFT49XMEHGKABCT6RUCBX');
INSERT INTO "character" VALUES(2,1,'Marco Bianchi','Ugo Ferri','Nomadi','{"ruleset": "ex-nihilo", "player": "Marco Bianchi", "character": "Ugo Ferri", "faction": "Nomadi", "attributes": {"corpo": 16, "equilibrio": 12, "mente": 18, "spirito": 21}, "skills": {"medicina": 3, "biologia": 2, "ricerca": 1}, "advancements": [{"name": "Colpo Caricato", "energy_cost": 1, "passive": false, "larp": true, "text": "Con un''arma da mischia a due mani sbilancia l''avversario (difficolt\u00e0 50)."}, {"name": "Sguardo del Vuoto", "energy_cost": 2, "passive": false, "larp": true, "text": "Il bersaglio subisce Paura."}], "armour": {"name": "Giubbotto rinforzato", "weight": "media", "deflection": 10, "absorption": 4, "max_equilibrio": 18}, "weapons": [{"name": "Pistola", "kind": "distanza", "damage": 12, "range_m": 25, "hands": 1}, {"name": "Coltello", "kind": "mischia", "damage": 4, "hands": 1}], "notes": "Medico della Corporazione."}','{"ruleset": "ex-nihilo", "player": "Marco Bianchi", "character": "Ugo Ferri", "faction": "Nomadi", "hp_max": 3, "ap_max": 3, "energy_max": 3, "energy_recovery_minutes": 20, "equipment": "pesante", "fascino": 33, "leadership": 39, "percezione": 30, "skill_slots": 5, "skills": [{"key": "medicina", "grade": 3, "name": {"it": "Medicina", "en": "Medicine", "es": "Medicina"}, "description": {"it": "la scienza che si occupa della salute del paziente. Comprende le discipline da laboratorio, le discipline chirurgiche, le discipline non chirurgiche, e molti tipi di medicina alternativa.", "en": "the science concerned with the patient''s health. It includes laboratory disciplines, surgical disciplines, non-surgical disciplines, and many kinds of alternative medicine.", "es": "la ciencia que se ocupa de la salud del paciente. Comprende las disciplinas de laboratorio, las disciplinas quir\u00fargicas, las disciplinas no quir\u00fargicas y muchos tipos de medicina alternativa."}}, {"key": "biologia", "grade": 2, "name": {"it": "Biologia", "en": "Biology", "es": "Biolog\u00eda"}, "description": {"it": "\u00e8 la scienza che studia tutto ci\u00f2 che \u00e8 vivo. La definizione di biologia presente in EX Nihilo accorpa diverse branche di biologia: cellulare, biotecnologia, ecologia, biologia evolutiva, epidemiologia, aerobiologia, anatomia, strutturale, forense, etologia, farmacologa, genetica, immunologia, tossicologia, virologia, micologia, morfologia, botanica, cronobiologia, biogeografia. Inoltre si hanno conoscenze di chimica organica e sopravvivenza.", "en": "it is the science that studies everything that is alive. The definition of biology used in EX Nihilo brings together several branches of biology: cellular, biotechnology, ecology, evolutionary biology, epidemiology, aerobiology, anatomy, structural, forensic, ethology, pharmacology, genetics, immunology, toxicology, virology, mycology, morphology, botany, chronobiology, biogeography. It also includes knowledge of organic chemistry and survival.", "es": "es la ciencia que estudia todo lo que est\u00e1 vivo. La definici\u00f3n de biolog\u00eda presente en EX Nihilo agrupa diversas ramas de la biolog\u00eda: celular, biotecnolog\u00eda, ecolog\u00eda, biolog\u00eda evolutiva, epidemiolog\u00eda, aerobiolog\u00eda, anatom\u00eda, estructural, forense, etolog\u00eda, farmacolog\u00eda, gen\u00e9tica, inmunolog\u00eda, toxicolog\u00eda, virolog\u00eda, micolog\u00eda, morfolog\u00eda, bot\u00e1nica, cronobiolog\u00eda, biogeograf\u00eda. Adem\u00e1s, incluye conocimientos de qu\u00edmica org\u00e1nica y supervivencia."}}, {"key": "ricerca", "grade": 1, "name": {"it": "Ricerca", "en": "Research", "es": "Investigaci\u00f3n"}, "description": {"it": "contiene una serie di discipline non direttamente connesse fra loro, ma accomunate dal concetto moderno di ricerca: investigare, hacking, scovare trappole, cartografia, navigazione, capacit\u00e0 di sopravvivere in ambienti selvaggi.", "en": "contains a series of disciplines not directly connected to one another, but united by the modern concept of research: investigating, hacking, finding traps, cartography, navigation, the ability to survive in wild environments.", "es": "contiene una serie de disciplinas no directamente relacionadas entre s\u00ed, pero unidas por el concepto moderno de investigaci\u00f3n: investigar, hacking, descubrir trampas, cartograf\u00eda, navegaci\u00f3n, capacidad de sobrevivir en entornos salvajes."}}], "armour": {"name": "Giubbotto rinforzato", "weight": "media", "points": 2}, "weapons": [{"name": "Pistola", "kind": "distanza", "hands": 1}, {"name": "Coltello", "kind": "mischia", "hands": 1}], "statuses": [{"key": "dolore", "turns": 3}, {"key": "paura", "turns": 3}, {"key": "percepire_alle_spalle", "turns": 0}, {"key": "a_terra", "turns": 1}, {"key": "stordimento", "turns": 5}, {"key": "invisibile", "turns": null}, {"key": "intangibile", "turns": null}, {"key": "ammaliamento", "turns": 60}, {"key": "paralisi", "turns": 5}, {"key": "incosciente", "turns": 600}], "notes": "Medico della Corporazione.", "advancements": [{"name": "Colpo Caricato", "energy_cost": 1, "passive": false, "text": "Con un''arma da mischia a due mani sbilancia l''avversario (difficolt\u00e0 50)."}, {"name": "Sguardo del Vuoto", "energy_cost": 2, "passive": false, "text": "Il bersaglio subisce Paura."}], "warnings": [], "tables": {"attributes": "house default", "armour": "house default", "statuses": "house default", "skills": "house default"}}','2026-12-02 04:30:20.567499','CBRK83RVMCK8RVRAH2VMS592ZS');
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
INSERT INTO "entry" VALUES(1,'00000000-0000-0000-0000-000000000064',1,'hit','2026-12-02 03:40:20.622772',NULL,'2026-12-02 04:30:20.629922',2,'{"id": "00000000-0000-0000-0000-000000000064", "kind": "hit", "at": "2026-12-02T03:40:20.622772Z", "damage": 1, "blows": 2, "pierce": false, "author": "referee"}');
INSERT INTO "entry" VALUES(2,'00000000-0000-0000-0000-000000000065',1,'status_on','2026-12-02 03:50:20.622772',NULL,'2026-12-02 04:30:20.664501',2,'{"id": "00000000-0000-0000-0000-000000000065", "kind": "status_on", "at": "2026-12-02T03:50:20.622772Z", "key": "paura", "author": "referee"}');
INSERT INTO "entry" VALUES(3,'00000000-0000-0000-0000-000000000066',1,'hit','2026-12-02 04:00:20.622772',NULL,'2026-12-02 04:30:20.690429',2,'{"id": "00000000-0000-0000-0000-000000000066", "kind": "hit", "at": "2026-12-02T04:00:20.622772Z", "damage": 1, "blows": 1, "pierce": false, "author": "referee"}');
INSERT INTO "entry" VALUES(4,'00000000-0000-0000-0000-0000000000c8',2,'spend_energy','2026-12-02 03:45:20.622772',NULL,'2026-12-02 04:30:20.714898',2,'{"id": "00000000-0000-0000-0000-0000000000c8", "kind": "spend_energy", "at": "2026-12-02T03:45:20.622772Z", "amount": 1, "advancement": "Colpo Caricato", "author": "referee"}');
INSERT INTO "entry" VALUES(5,'00000000-0000-0000-0000-0000000000c9',2,'hit','2026-12-02 04:10:20.622772',NULL,'2026-12-02 04:30:20.733707',2,'{"id": "00000000-0000-0000-0000-0000000000c9", "kind": "hit", "at": "2026-12-02T04:10:20.622772Z", "damage": 1, "blows": 3, "pierce": false, "author": "referee"}');
CREATE TABLE event (
	id INTEGER NOT NULL, 
	name VARCHAR(120) NOT NULL, 
	ruleset VARCHAR(40) NOT NULL, 
	settings JSON NOT NULL, 
	created_at DATETIME NOT NULL, faction_colours JSON DEFAULT '{}' NOT NULL, 
	PRIMARY KEY (id)
);
INSERT INTO "event" VALUES(1,'Historic event','ex-nihilo','{"turn_seconds": 1}','2026-12-02 04:30:20.534512','{}');
CREATE TABLE login_attempt (
	id INTEGER NOT NULL, 
	username VARCHAR(80) NOT NULL, 
	address VARCHAR(64) NOT NULL, 
	at DATETIME NOT NULL, 
	PRIMARY KEY (id)
);
CREATE TABLE print_job (
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
	PRIMARY KEY (id), 
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
INSERT INTO "user" VALUES(1,'organiser','scrypt:32768:8:1$C3XXwTzsiixa04j2$07a927c25875bbe1f3a3d9b9567236f1d3a2dcfcf2f46e0964403220ab0cedba04db741b1d00355afa7eb2eb45a5ba220ba9d679edc255dd74487549df5c88ba','organiser','2fcf37fd91e46d40517b3fe12f123ff6456cb479dff6f4ca3a1524f0057679af',1,'2026-12-02 04:30:20.091125',0,NULL);
INSERT INTO "user" VALUES(2,'referee','scrypt:32768:8:1$Pjal7ey4eCtExBzl$582c39f6e5ed0be62ebfac7fedf7e961a19b0662877524f54cb6c32a4589f9e6c92e00e8858585a220ab1d76b4e0b038bf957590d888e407b77dfe98cebdf775','referee','9b0973928000dabdcde825bce9c3caacc6d0359a1c52477560394cf225278aba',1,'2026-12-02 04:30:20.460237',0,NULL);
CREATE INDEX ix_character_event_id ON character (event_id);
CREATE INDEX ix_entry_character_id ON entry (character_id);
CREATE INDEX ix_login_attempt_address ON login_attempt (address);
CREATE INDEX ix_login_attempt_at ON login_attempt (at);
CREATE INDEX ix_login_attempt_username ON login_attempt (username);
CREATE INDEX ix_print_job_event_id ON print_job (event_id);
CREATE INDEX ix_badge_character_id ON badge (character_id);
CREATE UNIQUE INDEX uq_badge_active ON badge (character_id) WHERE revoked_at IS NULL;
CREATE INDEX ix_badge_lookup_at ON badge_lookup (at);
CREATE INDEX ix_badge_lookup_event_id ON badge_lookup (event_id);
CREATE UNIQUE INDEX ix_character_player_secret ON character (player_secret);
CREATE INDEX ix_refused_entry_at ON refused_entry (at);
CREATE INDEX ix_refused_entry_character_id ON refused_entry (character_id);
CREATE UNIQUE INDEX ix_refused_entry_client_id ON refused_entry (client_id);
COMMIT;
