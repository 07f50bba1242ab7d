/* an included file with an error */
byte ok;
byte bad = = 1;
