BEGIN TRANSACTION;
CREATE TABLE alembic_version (
	version_num VARCHAR(32) NOT NULL, 
	CONSTRAINT alembic_version_pkc PRIMARY KEY (version_num)
);
INSERT INTO "alembic_version" VALUES('9e4b1d7a2c63');
CREATE TABLE api_token (
	id INTEGER NOT NULL, 
	user_id INTEGER NOT NULL, 
	token_hash VARCHAR(64) NOT NULL, 
	label VARCHAR(80) NOT NULL, 
	created_at DATETIME NOT NULL, 
	revoked_at DATETIME, 
	PRIMARY KEY (id), 
	FOREIGN KEY(user_id) REFERENCES user (id), 
	UNIQUE (token_hash)
);
INSERT INTO "api_token" VALUES(1,1,'527d7e10c135ad0d00a3c7069eb0d8c8946b316c278811346bbe1b22d9ba56e0','script','2026-12-08 02:09:17.866701',NULL);
INSERT INTO "api_token" VALUES(2,2,'fb7b14678edc32b4f449b10f0a3035a6e8a64d19565a50f7e5239c2dc2b39831','script','2026-12-08 02:09:17.970447',NULL);
CREATE TABLE "badge" (
	id INTEGER NOT NULL, 
	character_id INTEGER NOT NULL, 
	secret VARCHAR(40), 
	short_code VARCHAR(12), 
	issued_at DATETIME NOT NULL, 
	revoked_at DATETIME, 
	printed_at DATETIME, 
	secret_hash VARCHAR(64) NOT NULL, 
	short_code_hash VARCHAR(64) NOT NULL, 
	PRIMARY KEY (id), 
	UNIQUE (secret), 
	FOREIGN KEY(character_id) REFERENCES character (id), 
	UNIQUE (short_code)
);
INSERT INTO "badge" VALUES(1,1,'CWFQPH7YWUGNZMCGH8ABRXHPP4','HJ4-T5N-QNR','2026-12-08 02:09:17.984967',NULL,NULL,'c38b36411e6de6b2e96a22b80f43666a35c4e10c5b396c31c813a2755020321e','0693fd172155115e81a8f67eafc56ea7ff338a548c18c4a419e51538f5c91645');
INSERT INTO "badge" VALUES(2,2,'B8HP5FJRWWN6AVEYNFBHGGTFDP','3GG-HMX-K64','2026-12-08 02:09:17.988273',NULL,NULL,'2d6c39482fff8f4b22c5492e368c158e55e6103fb490831f3aec5163543269bb','f8134e71d8ddac47b625ff5a11465b4aff39a4731937312adef27eafedd03879');
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
	created_at DATETIME NOT NULL, player_secret VARCHAR(40), withdrawn_at DATETIME, present_at DATETIME, version INTEGER DEFAULT '0' NOT NULL, player_secret_hash VARCHAR(64), 
	PRIMARY KEY (id), 
	FOREIGN KEY(event_id) REFERENCES event (id)
);
INSERT INTO "character" VALUES(1,1,'Giulia Rossi','Dott.ssa Vera Lanz','Corporazione','{"ruleset": "ex-nihilo", "player": "Giulia Rossi", "character": "Dott.ssa Vera Lanz", "faction": "Corporazione", "attributes": {"corpo": 16, "equilibrio": 12, "mente": 18, "spirito": 21}, "skills": {"medicina": 3, "biologia": 2, "ricerca": 1}, "advancements": [{"name": "Colpo Caricato", "energy_cost": 1, "passive": false, "larp": true, "text": "Con un''arma da mischia a due mani sbilancia l''avversario (difficolt\u00e0 50)."}, {"name": "Sguardo del Vuoto", "energy_cost": 2, "passive": false, "larp": true, "text": "Il bersaglio subisce Paura."}], "armour": {"name": "Giubbotto rinforzato", "weight": "media", "deflection": 10, "absorption": 4, "max_equilibrio": 18}, "weapons": [{"name": "Pistola", "kind": "distanza", "damage": 12, "range_m": 25, "hands": 1}, {"name": "Coltello", "kind": "mischia", "damage": 4, "hands": 1}], "notes": "Medico della Corporazione."}','{"ruleset": "ex-nihilo", "player": "Giulia Rossi", "character": "Dott.ssa Vera Lanz", "faction": "Corporazione", "hp_max": 3, "ap_max": 3, "energy_max": 3, "energy_recovery_minutes": 20, "equipment": "pesante", "fascino": 33, "leadership": 39, "percezione": 30, "skill_slots": 5, "skills": [{"key": "medicina", "grade": 3, "name": {"it": "Medicina", "en": "Medicine", "es": "Medicina"}, "description": {"it": "la scienza che si occupa della salute del paziente. Comprende le discipline da laboratorio, le discipline chirurgiche, le discipline non chirurgiche, e molti tipi di medicina alternativa.", "en": "the science concerned with the patient''s health. It includes laboratory disciplines, surgical disciplines, non-surgical disciplines, and many kinds of alternative medicine.", "es": "la ciencia que se ocupa de la salud del paciente. Comprende las disciplinas de laboratorio, las disciplinas quir\u00fargicas, las disciplinas no quir\u00fargicas y muchos tipos de medicina alternativa."}}, {"key": "biologia", "grade": 2, "name": {"it": "Biologia", "en": "Biology", "es": "Biolog\u00eda"}, "description": {"it": "\u00e8 la scienza che studia tutto ci\u00f2 che \u00e8 vivo. La definizione di biologia presente in EX Nihilo accorpa diverse branche di biologia: cellulare, biotecnologia, ecologia, biologia evolutiva, epidemiologia, aerobiologia, anatomia, strutturale, forense, etologia, farmacologa, genetica, immunologia, tossicologia, virologia, micologia, morfologia, botanica, cronobiologia, biogeografia. Inoltre si hanno conoscenze di chimica organica e sopravvivenza.", "en": "it is the science that studies everything that is alive. The definition of biology used in EX Nihilo brings together several branches of biology: cellular, biotechnology, ecology, evolutionary biology, epidemiology, aerobiology, anatomy, structural, forensic, ethology, pharmacology, genetics, immunology, toxicology, virology, mycology, morphology, botany, chronobiology, biogeography. It also includes knowledge of organic chemistry and survival.", "es": "es la ciencia que estudia todo lo que est\u00e1 vivo. La definici\u00f3n de biolog\u00eda presente en EX Nihilo agrupa diversas ramas de la biolog\u00eda: celular, biotecnolog\u00eda, ecolog\u00eda, biolog\u00eda evolutiva, epidemiolog\u00eda, aerobiolog\u00eda, anatom\u00eda, estructural, forense, etolog\u00eda, farmacolog\u00eda, gen\u00e9tica, inmunolog\u00eda, toxicolog\u00eda, virolog\u00eda, micolog\u00eda, morfolog\u00eda, bot\u00e1nica, cronobiolog\u00eda, biogeograf\u00eda. Adem\u00e1s, incluye conocimientos de qu\u00edmica org\u00e1nica y supervivencia."}}, {"key": "ricerca", "grade": 1, "name": {"it": "Ricerca", "en": "Research", "es": "Investigaci\u00f3n"}, "description": {"it": "contiene una serie di discipline non direttamente connesse fra loro, ma accomunate dal concetto moderno di ricerca: investigare, hacking, scovare trappole, cartografia, navigazione, capacit\u00e0 di sopravvivere in ambienti selvaggi.", "en": "contains a series of disciplines not directly connected to one another, but united by the modern concept of research: investigating, hacking, finding traps, cartography, navigation, the ability to survive in wild environments.", "es": "contiene una serie de disciplinas no directamente relacionadas entre s\u00ed, pero unidas por el concepto moderno de investigaci\u00f3n: investigar, hacking, descubrir trampas, cartograf\u00eda, navegaci\u00f3n, capacidad de sobrevivir en entornos salvajes."}}], "armour": {"name": "Giubbotto rinforzato", "weight": "media", "points": 2}, "weapons": [{"name": "Pistola", "kind": "distanza", "hands": 1}, {"name": "Coltello", "kind": "mischia", "hands": 1}], "statuses": [{"key": "dolore", "turns": 3}, {"key": "paura", "turns": 3}, {"key": "percepire_alle_spalle", "turns": 0}, {"key": "a_terra", "turns": 1}, {"key": "stordimento", "turns": 5}, {"key": "invisibile", "turns": null}, {"key": "intangibile", "turns": null}, {"key": "ammaliamento", "turns": 60}, {"key": "paralisi", "turns": 5}, {"key": "incosciente", "turns": 600}], "rules": [{"key": "stagger", "text": {"it": "A 0 punti vita si pu\u00f2 solo barcollare (1 metro per turno); un altro colpo: incosciente.", "en": "At 0 hit points, only stagger (1 metre a turn); one more blow: unconscious.", "es": "Con 0 puntos de vida, solo tambalearse (1 metro por turno); otro golpe: inconsciente."}}, {"key": "countdown", "text": {"it": "Incosciente: passati 10 minuti (600 turni) senza cure, morto.", "en": "Unconscious: dead after 10 minutes (600 turns) without care.", "es": "Inconsciente: muerto tras 10 minutos (600 turnos) sin cuidados."}}, {"key": "coup_de_grace", "text": {"it": "Colpo di grazia: mimato per almeno 3 secondi, uccide un incosciente.", "en": "Coup de gr\u00e2ce: mimed for at least 3 seconds, it kills an unconscious character.", "es": "Golpe de gracia: fingido durante al menos 3 segundos, mata a un inconsciente."}}], "notes": "Medico della Corporazione.", "advancements": [{"name": "Colpo Caricato", "energy_cost": 1, "passive": false, "text": "Con un''arma da mischia a due mani sbilancia l''avversario (difficolt\u00e0 50)."}, {"name": "Sguardo del Vuoto", "energy_cost": 2, "passive": false, "text": "Il bersaglio subisce Paura."}], "warnings": [], "tables": {"attributes": "house default", "armour": "house default", "statuses": "house default", "skills": "house default"}}','2026-12-08 02:09:17.981037','VK4XVAS93VXN76745N3WP53M2Z',NULL,NULL,9,'001920bffdf3da231a86742fd9a4c4ef158f8854fe8bfd60af9a38a49fecc676');
INSERT INTO "character" VALUES(2,1,'Marco Bianchi','Ugo Ferri','Nomadi','{"ruleset": "ex-nihilo", "player": "Marco Bianchi", "character": "Ugo Ferri", "faction": "Nomadi", "attributes": {"corpo": 16, "equilibrio": 12, "mente": 18, "spirito": 21}, "skills": {"medicina": 3, "biologia": 2, "ricerca": 1}, "advancements": [{"name": "Colpo Caricato", "energy_cost": 1, "passive": false, "larp": true, "text": "Con un''arma da mischia a due mani sbilancia l''avversario (difficolt\u00e0 50)."}, {"name": "Sguardo del Vuoto", "energy_cost": 2, "passive": false, "larp": true, "text": "Il bersaglio subisce Paura."}], "armour": {"name": "Giubbotto rinforzato", "weight": "media", "deflection": 10, "absorption": 4, "max_equilibrio": 18}, "weapons": [{"name": "Pistola", "kind": "distanza", "damage": 12, "range_m": 25, "hands": 1}, {"name": "Coltello", "kind": "mischia", "damage": 4, "hands": 1}], "notes": "Medico della Corporazione."}','{"ruleset": "ex-nihilo", "player": "Marco Bianchi", "character": "Ugo Ferri", "faction": "Nomadi", "hp_max": 3, "ap_max": 3, "energy_max": 3, "energy_recovery_minutes": 20, "equipment": "pesante", "fascino": 33, "leadership": 39, "percezione": 30, "skill_slots": 5, "skills": [{"key": "medicina", "grade": 3, "name": {"it": "Medicina", "en": "Medicine", "es": "Medicina"}, "description": {"it": "la scienza che si occupa della salute del paziente. Comprende le discipline da laboratorio, le discipline chirurgiche, le discipline non chirurgiche, e molti tipi di medicina alternativa.", "en": "the science concerned with the patient''s health. It includes laboratory disciplines, surgical disciplines, non-surgical disciplines, and many kinds of alternative medicine.", "es": "la ciencia que se ocupa de la salud del paciente. Comprende las disciplinas de laboratorio, las disciplinas quir\u00fargicas, las disciplinas no quir\u00fargicas y muchos tipos de medicina alternativa."}}, {"key": "biologia", "grade": 2, "name": {"it": "Biologia", "en": "Biology", "es": "Biolog\u00eda"}, "description": {"it": "\u00e8 la scienza che studia tutto ci\u00f2 che \u00e8 vivo. La definizione di biologia presente in EX Nihilo accorpa diverse branche di biologia: cellulare, biotecnologia, ecologia, biologia evolutiva, epidemiologia, aerobiologia, anatomia, strutturale, forense, etologia, farmacologa, genetica, immunologia, tossicologia, virologia, micologia, morfologia, botanica, cronobiologia, biogeografia. Inoltre si hanno conoscenze di chimica organica e sopravvivenza.", "en": "it is the science that studies everything that is alive. The definition of biology used in EX Nihilo brings together several branches of biology: cellular, biotechnology, ecology, evolutionary biology, epidemiology, aerobiology, anatomy, structural, forensic, ethology, pharmacology, genetics, immunology, toxicology, virology, mycology, morphology, botany, chronobiology, biogeography. It also includes knowledge of organic chemistry and survival.", "es": "es la ciencia que estudia todo lo que est\u00e1 vivo. La definici\u00f3n de biolog\u00eda presente en EX Nihilo agrupa diversas ramas de la biolog\u00eda: celular, biotecnolog\u00eda, ecolog\u00eda, biolog\u00eda evolutiva, epidemiolog\u00eda, aerobiolog\u00eda, anatom\u00eda, estructural, forense, etolog\u00eda, farmacolog\u00eda, gen\u00e9tica, inmunolog\u00eda, toxicolog\u00eda, virolog\u00eda, micolog\u00eda, morfolog\u00eda, bot\u00e1nica, cronobiolog\u00eda, biogeograf\u00eda. Adem\u00e1s, incluye conocimientos de qu\u00edmica org\u00e1nica y supervivencia."}}, {"key": "ricerca", "grade": 1, "name": {"it": "Ricerca", "en": "Research", "es": "Investigaci\u00f3n"}, "description": {"it": "contiene una serie di discipline non direttamente connesse fra loro, ma accomunate dal concetto moderno di ricerca: investigare, hacking, scovare trappole, cartografia, navigazione, capacit\u00e0 di sopravvivere in ambienti selvaggi.", "en": "contains a series of disciplines not directly connected to one another, but united by the modern concept of research: investigating, hacking, finding traps, cartography, navigation, the ability to survive in wild environments.", "es": "contiene una serie de disciplinas no directamente relacionadas entre s\u00ed, pero unidas por el concepto moderno de investigaci\u00f3n: investigar, hacking, descubrir trampas, cartograf\u00eda, navegaci\u00f3n, capacidad de sobrevivir en entornos salvajes."}}], "armour": {"name": "Giubbotto rinforzato", "weight": "media", "points": 2}, "weapons": [{"name": "Pistola", "kind": "distanza", "hands": 1}, {"name": "Coltello", "kind": "mischia", "hands": 1}], "statuses": [{"key": "dolore", "turns": 3}, {"key": "paura", "turns": 3}, {"key": "percepire_alle_spalle", "turns": 0}, {"key": "a_terra", "turns": 1}, {"key": "stordimento", "turns": 5}, {"key": "invisibile", "turns": null}, {"key": "intangibile", "turns": null}, {"key": "ammaliamento", "turns": 60}, {"key": "paralisi", "turns": 5}, {"key": "incosciente", "turns": 600}], "rules": [{"key": "stagger", "text": {"it": "A 0 punti vita si pu\u00f2 solo barcollare (1 metro per turno); un altro colpo: incosciente.", "en": "At 0 hit points, only stagger (1 metre a turn); one more blow: unconscious.", "es": "Con 0 puntos de vida, solo tambalearse (1 metro por turno); otro golpe: inconsciente."}}, {"key": "countdown", "text": {"it": "Incosciente: passati 10 minuti (600 turni) senza cure, morto.", "en": "Unconscious: dead after 10 minutes (600 turns) without care.", "es": "Inconsciente: muerto tras 10 minutos (600 turnos) sin cuidados."}}, {"key": "coup_de_grace", "text": {"it": "Colpo di grazia: mimato per almeno 3 secondi, uccide un incosciente.", "en": "Coup de gr\u00e2ce: mimed for at least 3 seconds, it kills an unconscious character.", "es": "Golpe de gracia: fingido durante al menos 3 segundos, mata a un inconsciente."}}], "notes": "Medico della Corporazione.", "advancements": [{"name": "Colpo Caricato", "energy_cost": 1, "passive": false, "text": "Con un''arma da mischia a due mani sbilancia l''avversario (difficolt\u00e0 50)."}, {"name": "Sguardo del Vuoto", "energy_cost": 2, "passive": false, "text": "Il bersaglio subisce Paura."}], "warnings": [], "tables": {"attributes": "house default", "armour": "house default", "statuses": "house default", "skills": "house default"}}','2026-12-08 02:09:17.981037','E5USX4NEWJTPS7BY82EQMHFF3A',NULL,NULL,11,'ac93402d313729c18d46d1e666f3da20c062fe577dfb51a4acad9cc53f2cfb2b');
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
	fields JSON NOT NULL, referee_at DATETIME, stepped_on BOOLEAN DEFAULT 0 NOT NULL, 
	PRIMARY KEY (id), 
	FOREIGN KEY(author_id) REFERENCES user (id), 
	FOREIGN KEY(character_id) REFERENCES character (id), 
	CONSTRAINT uq_entry_client_id UNIQUE (client_id)
);
INSERT INTO "entry" VALUES(1,'00000000-0000-0000-0000-000000000064',1,'hit','2026-12-08 01:19:17.992781',NULL,'2026-12-08 02:09:17.995798',2,'{"id": "00000000-0000-0000-0000-000000000064", "kind": "hit", "at": "2026-12-08T01:19:17.992781Z", "damage": 1, "blows": 2, "pierce": false, "author": "referee"}',NULL,1);
INSERT INTO "entry" VALUES(2,'00000000-0000-0000-0000-000000000065',1,'status_on','2026-12-08 01:29:17.992781',NULL,'2026-12-08 02:09:18.004237',2,'{"id": "00000000-0000-0000-0000-000000000065", "kind": "status_on", "at": "2026-12-08T01:29:17.992781Z", "key": "paura", "author": "referee"}',NULL,1);
INSERT INTO "entry" VALUES(3,'00000000-0000-0000-0000-000000000066',1,'hit','2026-12-08 01:39:17.992781',NULL,'2026-12-08 02:09:18.008326',2,'{"id": "00000000-0000-0000-0000-000000000066", "kind": "hit", "at": "2026-12-08T01:39:17.992781Z", "damage": 1, "blows": 1, "pierce": false, "author": "referee"}',NULL,1);
INSERT INTO "entry" VALUES(4,'00000000-0000-0000-0000-0000000000c8',2,'spend_energy','2026-12-08 01:24:17.992781',NULL,'2026-12-08 02:09:18.011351',2,'{"id": "00000000-0000-0000-0000-0000000000c8", "kind": "spend_energy", "at": "2026-12-08T01:24:17.992781Z", "amount": 1, "advancement": "Colpo Caricato", "author": "referee"}',NULL,1);
INSERT INTO "entry" VALUES(5,'00000000-0000-0000-0000-0000000000c9',2,'hit','2026-12-08 01:49:17.992781',NULL,'2026-12-08 02:09:18.014686',2,'{"id": "00000000-0000-0000-0000-0000000000c9", "kind": "hit", "at": "2026-12-08T01:49:17.992781Z", "damage": 1, "blows": 3, "pierce": false, "author": "referee"}',NULL,1);
CREATE TABLE event (
	id INTEGER NOT NULL, 
	name VARCHAR(120) NOT NULL, 
	ruleset VARCHAR(40) NOT NULL, 
	settings JSON NOT NULL, 
	created_at DATETIME NOT NULL, faction_colours JSON DEFAULT '{}' NOT NULL, archived_at DATETIME, version INTEGER DEFAULT '0' NOT NULL, 
	PRIMARY KEY (id)
);
INSERT INTO "event" VALUES(1,'Historic event','ex-nihilo','{"turn_seconds": 1, "secret": "2e66982154a059f27a8c779e2bcf6a9b"}','2026-12-08 02:09:17.973118','{}',NULL,11);
CREATE TABLE heartbeat (
	name VARCHAR(40) NOT NULL, 
	at DATETIME NOT NULL, 
	PRIMARY KEY (name)
);
INSERT INTO "heartbeat" VALUES('healthz','2026-12-08 02:09:17');
CREATE TABLE kept_fold (
	character_id INTEGER NOT NULL, 
	version INTEGER NOT NULL, 
	fingerprint VARCHAR(64) NOT NULL, 
	folded BLOB NOT NULL, 
	PRIMARY KEY (character_id), 
	FOREIGN KEY(character_id) REFERENCES character (id) ON DELETE CASCADE
);
CREATE TABLE login_attempt (
	id INTEGER NOT NULL, 
	username VARCHAR(80) NOT NULL, 
	address VARCHAR(64) NOT NULL, 
	at DATETIME NOT NULL, 
	PRIMARY KEY (id)
);
CREATE TABLE mark (
	name VARCHAR(20) NOT NULL, 
	value INTEGER DEFAULT '0' NOT NULL, 
	PRIMARY KEY (name)
);
INSERT INTO "mark" VALUES('accounts',0);
INSERT INTO "mark" VALUES('conflicts',0);
INSERT INTO "mark" VALUES('epoch',291120084);
INSERT INTO "mark" VALUES('versions',12);
INSERT INTO "mark" VALUES('refusals',0);
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
	running_key VARCHAR(64), skipped INTEGER DEFAULT '0' NOT NULL, 
	PRIMARY KEY (id), 
	CONSTRAINT uq_print_job_running_key UNIQUE (running_key), 
	FOREIGN KEY(event_id) REFERENCES event (id)
);
CREATE TABLE referee_event (
	user_id INTEGER NOT NULL, 
	event_id INTEGER NOT NULL, 
	PRIMARY KEY (user_id, event_id), 
	FOREIGN KEY(event_id) REFERENCES event (id), 
	FOREIGN KEY(user_id) REFERENCES user (id)
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
CREATE TABLE "user" (
	id INTEGER NOT NULL, 
	username VARCHAR(80) NOT NULL, 
	password_hash VARCHAR(255) NOT NULL, 
	role VARCHAR(20) NOT NULL, 
	active BOOLEAN NOT NULL, 
	created_at DATETIME NOT NULL, 
	language VARCHAR(5), 
	PRIMARY KEY (id), 
	UNIQUE (username)
);
INSERT INTO "user" VALUES(1,'organiser','scrypt:32768:8:1$CiEHDlMc6tsdKYzS$d2251c8ea2dae14b3bf65eab0aa9df5e9ab598d6b61887b3e00db32c3bdb60a43762cadb91a6fb6f9d348042e56a97d05342c173b0f5f8ce37c32ecde63e1d18','organiser',1,'2026-12-08 02:09:17.863548',NULL);
INSERT INTO "user" VALUES(2,'referee','scrypt:32768:8:1$AHlhPIEEYyoZ9ciF$3d3e003f9c274d39c306a3092a7a2d096a77f0d8196abf5cb8ce22e8d349cfed74c6df40e969b5fdf112d1b0131841eaed1e652920e607112028a7aa9192d92b','referee',1,'2026-12-08 02:09:17.968945',NULL);
CREATE TABLE web_session (
	id INTEGER NOT NULL, 
	key_hash VARCHAR(64) NOT NULL, 
	user_id INTEGER NOT NULL, 
	created_at DATETIME NOT NULL, 
	ended_at DATETIME, 
	PRIMARY KEY (id), 
	FOREIGN KEY(user_id) REFERENCES user (id), 
	UNIQUE (key_hash)
);
CREATE INDEX ix_character_event_id ON character (event_id);
CREATE INDEX ix_login_attempt_address ON login_attempt (address);
CREATE INDEX ix_login_attempt_at ON login_attempt (at);
CREATE INDEX ix_login_attempt_username ON login_attempt (username);
CREATE INDEX ix_badge_lookup_at ON badge_lookup (at);
CREATE INDEX ix_badge_lookup_event_id ON badge_lookup (event_id);
CREATE UNIQUE INDEX ix_character_player_secret ON character (player_secret);
CREATE INDEX ix_refused_entry_at ON refused_entry (at);
CREATE INDEX ix_refused_entry_character_id ON refused_entry (character_id);
CREATE UNIQUE INDEX ix_refused_entry_client_id ON refused_entry (client_id);
CREATE INDEX ix_sheet_change_character_id ON sheet_change (character_id);
CREATE INDEX ix_print_job_event_id ON print_job (event_id);
CREATE INDEX ix_api_token_user_id ON api_token (user_id);
CREATE INDEX ix_web_session_user_id ON web_session (user_id);
CREATE INDEX ix_badge_character_id ON badge (character_id);
CREATE UNIQUE INDEX uq_badge_active ON badge (character_id) WHERE revoked_at IS NULL;
CREATE UNIQUE INDEX ix_badge_secret_hash ON badge (secret_hash);
CREATE UNIQUE INDEX ix_badge_short_code_hash ON badge (short_code_hash);
CREATE UNIQUE INDEX ix_character_player_secret_hash ON character (player_secret_hash);
CREATE INDEX ix_referee_event_event_id ON referee_event (event_id);
CREATE INDEX ix_entry_author_received ON entry (author_id, received_at);
CREATE TRIGGER larp_entry_insert AFTER INSERT ON "entry" FOR EACH ROW
BEGIN
    UPDATE event SET version = version + 1 WHERE id = (SELECT event_id FROM "character" WHERE id = NEW.character_id);
    UPDATE "character" SET version = (SELECT version FROM event WHERE event.id = "character".event_id) WHERE id = NEW.character_id;
    UPDATE mark SET value = value + 1 WHERE name = 'conflicts' AND NOT NEW.stepped_on;
END;
CREATE TRIGGER larp_entry_update AFTER UPDATE ON "entry" FOR EACH ROW
BEGIN
    UPDATE event SET version = version + 1 WHERE id = (SELECT event_id FROM "character" WHERE id = NEW.character_id);
    UPDATE "character" SET version = (SELECT version FROM event WHERE event.id = "character".event_id) WHERE id = NEW.character_id;
    UPDATE event SET version = version + 1 WHERE id = (SELECT event_id FROM "character" WHERE id = OLD.character_id);
    UPDATE "character" SET version = (SELECT version FROM event WHERE event.id = "character".event_id) WHERE id = OLD.character_id;
    UPDATE mark SET value = value + 1 WHERE name = 'conflicts';
    UPDATE mark SET value = value + 1 WHERE name = 'epoch';
END;
CREATE TRIGGER larp_entry_delete AFTER DELETE ON "entry" FOR EACH ROW
BEGIN
    UPDATE event SET version = version + 1 WHERE id = (SELECT event_id FROM "character" WHERE id = OLD.character_id);
    UPDATE "character" SET version = (SELECT version FROM event WHERE event.id = "character".event_id) WHERE id = OLD.character_id;
    UPDATE mark SET value = value + 1 WHERE name = 'conflicts';
    UPDATE mark SET value = value + 1 WHERE name = 'epoch';
END;
CREATE TRIGGER larp_badge_insert AFTER INSERT ON "badge" FOR EACH ROW
BEGIN
    UPDATE event SET version = version + 1 WHERE id = (SELECT event_id FROM "character" WHERE id = NEW.character_id);
    UPDATE "character" SET version = (SELECT version FROM event WHERE event.id = "character".event_id) WHERE id = NEW.character_id;
END;
CREATE TRIGGER larp_badge_update AFTER UPDATE ON "badge" FOR EACH ROW
BEGIN
    UPDATE event SET version = version + 1 WHERE id = (SELECT event_id FROM "character" WHERE id = NEW.character_id);
    UPDATE "character" SET version = (SELECT version FROM event WHERE event.id = "character".event_id) WHERE id = NEW.character_id;
    UPDATE event SET version = version + 1 WHERE id = (SELECT event_id FROM "character" WHERE id = OLD.character_id);
    UPDATE "character" SET version = (SELECT version FROM event WHERE event.id = "character".event_id) WHERE id = OLD.character_id;
END;
CREATE TRIGGER larp_badge_delete AFTER DELETE ON "badge" FOR EACH ROW
BEGIN
    UPDATE event SET version = version + 1 WHERE id = (SELECT event_id FROM "character" WHERE id = OLD.character_id);
    UPDATE "character" SET version = (SELECT version FROM event WHERE event.id = "character".event_id) WHERE id = OLD.character_id;
END;
CREATE TRIGGER larp_character_insert AFTER INSERT ON "character" FOR EACH ROW
BEGIN
    UPDATE event SET version = version + 1 WHERE id = (SELECT event_id FROM "character" WHERE id = NEW.id);
    UPDATE "character" SET version = (SELECT version FROM event WHERE event.id = "character".event_id) WHERE id = NEW.id;
END;
CREATE TRIGGER larp_character_update AFTER UPDATE ON "character" FOR EACH ROW WHEN NEW.version = OLD.version
BEGIN
    UPDATE event SET version = version + 1 WHERE id = (SELECT event_id FROM "character" WHERE id = NEW.id);
    UPDATE "character" SET version = (SELECT version FROM event WHERE event.id = "character".event_id) WHERE id = NEW.id;
END;
CREATE TRIGGER larp_character_update_sheet AFTER UPDATE OF larp ON "character" FOR EACH ROW
BEGIN
    UPDATE mark SET value = value + 1 WHERE name = 'conflicts';
END;
CREATE TRIGGER larp_character_update_event AFTER UPDATE OF event_id ON "character" FOR EACH ROW WHEN NEW.event_id <> OLD.event_id
BEGIN
    UPDATE mark SET value = value + 1 WHERE name = 'epoch';
END;
CREATE TRIGGER larp_character_delete AFTER DELETE ON "character" FOR EACH ROW
BEGIN
    UPDATE mark SET value = value + 1 WHERE name = 'epoch';
END;
CREATE TRIGGER larp_event_insert AFTER INSERT ON "event" FOR EACH ROW
BEGIN
    UPDATE mark SET value = value + 1 WHERE name = 'versions';
END;
CREATE TRIGGER larp_event_update AFTER UPDATE ON "event" FOR EACH ROW WHEN NEW.version = OLD.version
BEGIN
    UPDATE event SET version = version + 1 WHERE id = NEW.id;
    UPDATE "character" SET version = (SELECT version FROM event WHERE id = NEW.id) WHERE event_id = NEW.id;
END;
CREATE TRIGGER larp_event_update_rules AFTER UPDATE OF settings, ruleset ON "event" FOR EACH ROW
BEGIN
    UPDATE mark SET value = value + 1 WHERE name = 'conflicts';
END;
CREATE TRIGGER larp_event_update_version AFTER UPDATE OF version ON "event" FOR EACH ROW WHEN NEW.version <> OLD.version
BEGIN
    UPDATE mark SET value = value + 1 WHERE name = 'versions';
END;
CREATE TRIGGER larp_event_delete AFTER DELETE ON "event" FOR EACH ROW
BEGIN
    UPDATE mark SET value = value + 1 WHERE name = 'epoch';
END;
CREATE TRIGGER larp_user_update AFTER UPDATE ON "user" FOR EACH ROW
BEGIN
    UPDATE mark SET value = value + 1 WHERE name = 'accounts';
END;
CREATE TRIGGER larp_user_delete AFTER DELETE ON "user" FOR EACH ROW
BEGIN
    UPDATE mark SET value = value + 1 WHERE name = 'accounts';
END;
CREATE TRIGGER larp_api_token_update AFTER UPDATE ON "api_token" FOR EACH ROW
BEGIN
    UPDATE mark SET value = value + 1 WHERE name = 'accounts';
END;
CREATE TRIGGER larp_api_token_delete AFTER DELETE ON "api_token" FOR EACH ROW
BEGIN
    UPDATE mark SET value = value + 1 WHERE name = 'accounts';
END;
CREATE TRIGGER larp_web_session_update AFTER UPDATE ON "web_session" FOR EACH ROW
BEGIN
    UPDATE mark SET value = value + 1 WHERE name = 'accounts';
END;
CREATE TRIGGER larp_web_session_delete AFTER DELETE ON "web_session" FOR EACH ROW
BEGIN
    UPDATE mark SET value = value + 1 WHERE name = 'accounts';
END;
CREATE TRIGGER larp_referee_event_insert AFTER INSERT ON "referee_event" FOR EACH ROW
BEGIN
    UPDATE mark SET value = value + 1 WHERE name = 'accounts';
END;
CREATE TRIGGER larp_referee_event_update AFTER UPDATE ON "referee_event" FOR EACH ROW
BEGIN
    UPDATE mark SET value = value + 1 WHERE name = 'accounts';
END;
CREATE TRIGGER larp_referee_event_delete AFTER DELETE ON "referee_event" FOR EACH ROW
BEGIN
    UPDATE mark SET value = value + 1 WHERE name = 'accounts';
END;
CREATE TRIGGER larp_dismissed_conflict_insert AFTER INSERT ON "dismissed_conflict" FOR EACH ROW
BEGIN
    UPDATE mark SET value = value + 1 WHERE name = 'accounts';
END;
CREATE TRIGGER larp_dismissed_conflict_update AFTER UPDATE ON "dismissed_conflict" FOR EACH ROW
BEGIN
    UPDATE mark SET value = value + 1 WHERE name = 'accounts';
END;
CREATE TRIGGER larp_dismissed_conflict_delete AFTER DELETE ON "dismissed_conflict" FOR EACH ROW
BEGIN
    UPDATE mark SET value = value + 1 WHERE name = 'accounts';
END;
CREATE TRIGGER larp_refused_entry_insert AFTER INSERT ON "refused_entry" FOR EACH ROW
BEGIN
    UPDATE mark SET value = value + 1 WHERE name = 'refusals';
END;
CREATE TRIGGER larp_refused_entry_update AFTER UPDATE ON "refused_entry" FOR EACH ROW
BEGIN
    UPDATE mark SET value = value + 1 WHERE name = 'refusals';
END;
CREATE TRIGGER larp_refused_entry_delete AFTER DELETE ON "refused_entry" FOR EACH ROW
BEGIN
    UPDATE mark SET value = value + 1 WHERE name = 'refusals';
END;
CREATE INDEX ix_entry_character_row ON entry (character_id, id);
CREATE INDEX ix_character_event_version_link ON character (event_id, version, player_secret_hash);
COMMIT;
